import { describe, expect, it } from 'vitest';
import { splitSseData } from './sse-frames.ts';

describe('reading Server-Sent Events as they arrive', () => {
  it('yields the data of every complete event and keeps the unfinished one', () => {
    expect(splitSseData('data: {"a":1}\n\ndata: {"b":2}\n\ndata: {"c"')).toEqual({
      data: ['{"a":1}', '{"b":2}'],
      rest: 'data: {"c"',
    });
  });

  it('drops comments and other fields, joins multi-line data, and takes CRLF and no space after the colon', () => {
    expect(splitSseData(': heartbeat\n\nid: 4\ndata:first\ndata: second\r\n\r\nevent: x\n\n')).toEqual({
      data: ['first\nsecond'],
      rest: '',
    });
  });

  it('yields nothing until an event ends', () => {
    expect(splitSseData('data: {"type":"progress"}\n')).toEqual({
      data: [],
      rest: 'data: {"type":"progress"}\n',
    });
  });
});
