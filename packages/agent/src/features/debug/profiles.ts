import { Session } from 'node:inspector/promises';
import type { Readable } from 'node:stream';
import { getHeapSnapshot } from 'node:v8';
import { AppError } from '@binnacle/common/server';

let profiling = false;

/** A V8 heap snapshot, streamed as it is written (open it in Chrome DevTools → Memory). */
export function heapSnapshot(): Readable {
  return getHeapSnapshot();
}

/** A CPU profile of the next `seconds` (a .cpuprofile for DevTools → Performance); one at a time. */
export async function cpuProfile(seconds: number): Promise<object> {
  if (profiling)
    throw new AppError('conflict', 'a CPU profile is already being taken; try again when it is done');
  profiling = true;
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const { profile } = await session.post('Profiler.stop');
    return profile;
  } finally {
    session.disconnect();
    profiling = false;
  }
}
