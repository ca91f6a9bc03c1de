/** The company's identification procedure (issue 29, GET/PUT /ident_procedure). */
import type { IdentProcedure, IdentProcedureBody } from '#contract/identProcedure';
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
