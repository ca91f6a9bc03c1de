/** Addresses of the call screens (docs/product/screens.md). */
export const callPath = (call: { profile: number; room_id: string; call_id: number }) =>
  `/call/${call.profile}/${call.room_id}/${call.call_id}`;

export const videoPath = (profileId: number, callId: number) => `/profile/${profileId}/video/${callId}`;
