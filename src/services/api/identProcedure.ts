/** The company's identification procedure (GET/PUT /ident_procedure). */
import type {
  CallScreenshot,
  CallStep,
  CallStepBody,
  CodeSent,
  IdentProcedure,
  IdentProcedureBody,
  ScreenshotStep,
  StepKind,
} from '#contract/identProcedure';
import { api, ifMatch } from './http';

type Options = { signal?: AbortSignal };

export const identProcedureKeys = {
  all: ['identProcedure'] as const,
  current: () => ['identProcedure', 'current'] as const,
};

export function getIdentProcedure({ signal }: Options = {}): Promise<IdentProcedure> {
  return api.get('ident_procedure', { signal }).json<IdentProcedure>();
}

/** PUT with the version the screen holds (If-Match): a newer one answers 409 with the current procedure. */
export function saveIdentProcedure(procedure: IdentProcedureBody, version: number): Promise<IdentProcedure> {
  return api.put('ident_procedure', { json: procedure, headers: ifMatch(version) }).json<IdentProcedure>();
}

/** The step results recorded in a call (GET /videocall/{id}/steps), in the order of the recording. */
export function getCallSteps(callId: number, { signal }: Options = {}): Promise<CallStep[]> {
  return api.get(`videocall/${callId}/steps`, { signal }).json<CallStep[]>();
}

/** The call's agent records one step result (POST /videocall/{id}/steps). */
export function addCallStep(callId: number, step: CallStepBody): Promise<CallStep> {
  return api.post(`videocall/${callId}/steps`, { json: step }).json<CallStep>();
}

/** The call's agent shows the customer a step (PUT /videocall/{id}/current_step): their page says what to do. */
export async function showCallStep(callId: number, kind: StepKind): Promise<void> {
  await api.put(`videocall/${callId}/current_step`, { json: { kind } });
}

/** The call's agent sends the customer the second-channel code (POST /videocall/{id}/code). */
export function sendCallCode(callId: number): Promise<CodeSent> {
  return api.post(`videocall/${callId}/code`).json<CodeSent>();
}

/** The screenshots taken in a call (GET /videocall/{id}/screenshots), in the order they were taken. */
export function getCallScreenshots(callId: number, { signal }: Options = {}): Promise<CallScreenshot[]> {
  return api.get(`videocall/${callId}/screenshots`, { signal }).json<CallScreenshot[]>();
}

/** The call's agent stores a screenshot (a JPEG) for a step (POST /videocall/{id}/screenshots). */
export function addCallScreenshot(
  callId: number,
  kind: ScreenshotStep,
  image: Blob,
): Promise<CallScreenshot> {
  return api
    .post(`videocall/${callId}/screenshots`, {
      searchParams: { kind },
      body: image,
      headers: { 'content-type': 'image/jpeg' },
    })
    .json<CallScreenshot>();
}
