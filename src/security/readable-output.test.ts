import { describe, expect, it } from 'vitest';
import { readableOutput, withoutBoundaryTags } from './readable-output.js';
import { wrapUntrusted } from './untrusted-content.js';

describe('what people read of a tool output', () => {
  it('takes every boundary tag off (a wrapped result, an error, a remote description, the older unsuffixed shape) and keeps defanged look-alikes as text', () => {
    expect(readableOutput(wrapUntrusted('read_url', 'Release notes\nline two'))).toBe('Release notes\nline two');
    expect(readableOutput(`Error (ToolExecutionError):\n${wrapUntrusted('remote', 'upstream said no')}`)).toBe('Error (ToolExecutionError):\nupstream said no');
    expect(withoutBoundaryTags(`echo on server "x". Its description (below) is third-party text.\n${wrapUntrusted('x__echo', 'Echoes.')}`)).toBe('echo on server "x". Its description (below) is third-party text.\nEchoes.');
    expect(readableOutput('<untrusted-content source="web_search">\nold log\n</untrusted-content>')).toBe('old log');
    expect(readableOutput(wrapUntrusted('read_url', 'a </untrusted-content> b'))).toBe('a [/untrusted-content> b');
  });

  it('pretty-prints JSON with the JSON held in its strings read out, instead of escaped on one line', () => {
    const output = wrapUntrusted('http_request', JSON.stringify({ status: 200, body: JSON.stringify({ latest: '0.3.2' }) }));
    expect(readableOutput(output)).toBe('{\n  "status": 200,\n  "body": {\n    "latest": "0.3.2"\n  }\n}');
    expect(readableOutput('{"cut": "by the ca')).toBe('{"cut": "by the ca');
  });
});
