import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import { cellState, cellText, fieldError, fieldOf, rulePath } from './types.ts';

describe('rulePath', () => {
  it('names the rule, peer and port as the policy spells them', () => {
    expect(rulePath('ingress', { policy: 'a/b', ruleIndex: 0, peerIndex: 1, portIndex: 0 })).toBe(
      'spec.ingress[0].from[1].ports[0]',
    );
    expect(rulePath('egress', { policy: 'a/b', ruleIndex: 2, peerIndex: 0 })).toBe('spec.egress[2].to[0]');
    expect(rulePath('egress', { policy: 'a/b', ruleIndex: 1 })).toBe('spec.egress[1]');
  });
});

describe('matrix cells', () => {
  const cell = (allowed: boolean, egress: boolean, ingress: boolean, policies: string[] = []) => ({
    allowed,
    egress,
    ingress,
    policies,
  });
  it('says which side stopped a pair', () => {
    expect(cellState(cell(true, true, true))).toBe('allowed');
    expect(cellState(cell(false, true, false))).toBe('ingress');
    expect(cellState(cell(false, false, true))).toBe('egress');
    expect(cellState(cell(false, false, false))).toBe('both');
    expect(cellState(cell(false, true, true))).toBe('ports');
  });
  it('names the deciding policies in words', () => {
    expect(cellText('a', 'b', cell(true, true, true, ['shop/allow']))).toBe('a → b: allowed by shop/allow');
    expect(cellText('a', 'b', cell(true, true, true))).toBe('a → b: allowed (no policy isolates either pod)');
    expect(cellText('a', 'b', cell(false, true, false, ['shop/deny']))).toBe(
      "a → b: denied at ingress (the destination's policies) by shop/deny",
    );
  });
});

describe('fieldOf', () => {
  it("finds the field an agent's 400 names", () => {
    expect(fieldOf('sourceLabels "x" is not a comma-separated list of key=value labels')).toBe(
      'sourceLabels',
    );
    expect(fieldOf('source.ip "nope" is not an IPv4 or IPv6 address')).toBe('source');
    expect(fieldOf('destination "pod/x" is not one of pod/<namespace>/<name>')).toBe('destination');
    expect(fieldOf('query parameter "port" must be <= 65535')).toBe('port');
    expect(fieldOf('give either source or sourceNamespace with sourceLabels')).toBeUndefined();
  });
  it('answers only for a 400', () => {
    expect(
      fieldError(new ApiError(400, 'invalid_request', 'query parameter "port" must be integer')),
    ).toEqual({
      field: 'port',
      message: 'query parameter "port" must be integer',
    });
    expect(fieldError(new ApiError(404, 'not_found', 'source pod not found'))).toBeUndefined();
    expect(fieldError(new Error('port'))).toBeUndefined();
  });
});
