import { OverlayToaster, Position, type Toaster } from '@blueprintjs/core';

let instance: Promise<Toaster> | null = null;

export function toaster(): Promise<Toaster> {
  instance ??= OverlayToaster.create({ position: Position.TOP, maxToasts: 4 });
  return instance;
}
