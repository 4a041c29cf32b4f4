import { describe, expect, it } from 'vitest';
import { SseParser } from './sse';

describe('SseParser', () => {
  it('reads events split across chunks, skipping comments', () => {
    const p = new SseParser();
    expect(p.push('event: chat\ndata: {"chat_id":"a"')).toEqual([]);
    expect(p.push(',"message_id":"b"}\n\n: keepalive\n\nevent: delta\r\ndata: {"text":"Hi"}\r\n\r\nevent: de')).toEqual([
      { event: 'chat', data: '{"chat_id":"a","message_id":"b"}' },
      { event: 'delta', data: '{"text":"Hi"}' },
    ]);
    expect(p.push('lta\ndata: {"text":" there"}\n\n')).toEqual([{ event: 'delta', data: '{"text":" there"}' }]);
  });
  it('joins multi-line data', () => {
    expect(new SseParser().push('data: a\ndata: b\n\n')).toEqual([{ event: 'message', data: 'a\nb' }]);
  });
});
