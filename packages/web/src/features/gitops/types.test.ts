import { describe, expect, it } from 'vitest';
import { operationText, shortRevision } from './types.ts';

describe('shortRevision', () => {
  it('shortens commit ids to 7 characters and digests to 12, leaving tags and versions', () => {
    expect(shortRevision('4f9c2e1d8b7a6c5e4d3c2b1a0f9e8d7c6b5a4f3e')).toBe('4f9c2e1');
    expect(shortRevision('main@sha1:4f9c2e1d8b7a6c5e4d3c2b1a0f9e8d7c6b5a4f3e')).toBe('main@sha1:4f9c2e1');
    expect(shortRevision(`sha256:${'9'.repeat(64)}`)).toBe('sha256:999999999999');
    expect(shortRevision('v0.9.0')).toBe('v0.9.0');
    expect(shortRevision(undefined)).toBe('—');
  });
});

describe('operationText', () => {
  const op = { running: false };
  it('says a sync was asked for before the controller has taken it', () => {
    expect(operationText({ ...op, running: true })).toBe(
      "Sync requested: waiting for Argo CD's application controller",
    );
  });
  it('gives the phase with the message, or nothing without an operation', () => {
    expect(operationText({ ...op, phase: 'Failed', message: 'one or more objects failed' })).toBe(
      'Failed: one or more objects failed',
    );
    expect(operationText({ ...op, phase: 'Succeeded' })).toBe('Succeeded');
    expect(operationText(op)).toBeUndefined();
  });
});
