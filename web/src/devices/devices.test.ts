import { describe, expect, it } from 'vitest';
import { deviceKinds, genericExample, ingestUrl, kindLabel, raptTemplate, setupFor, urlParts } from './devices';

const token = 'wortd_utZwnY1J2V9q4sE2gJ15cfm44dc52zgC4EbMQbvbXhD';
const url = ingestUrl('https://brew.example.org', token);

describe('ingest URL', () => {
  it('is the origin, /ingest/ and the token', () => {
    expect(url).toBe(`https://brew.example.org/ingest/${token}`);
    expect(ingestUrl('http://127.0.0.1:8080/', 'wortd_x')).toBe('http://127.0.0.1:8080/ingest/wortd_x');
  });
  it('splits into host, port and path for the iSpindel', () => {
    expect(urlParts('http://192.168.1.5:8080/ingest/wortd_x')).toEqual({ host: '192.168.1.5', port: '8080', path: '/ingest/wortd_x' });
    expect(urlParts(url)).toEqual({ host: 'brew.example.org', port: '443', path: `/ingest/${token}` });
    expect(urlParts('http://brew.local/ingest/t').port).toBe('80');
  });
});

describe('device kinds', () => {
  it('has a readable name for every kind of the API', () => {
    expect(deviceKinds.map(([k]) => k)).toEqual(['ispindel', 'gravitymon', 'tilt', 'rapt', 'stream', 'generic']);
    expect(kindLabel('rapt')).toBe('RAPT Pill');
    expect(kindLabel('generic')).toBe('Other (generic JSON)');
    expect(kindLabel('something-new')).toBe('something-new');
  });
});

describe('setup instructions', () => {
  it('every kind names the full ingest URL (the iSpindel its parts)', () => {
    for (const [kind] of deviceKinds) {
      const s = setupFor(kind, url);
      const text = [...s.steps, s.snippet?.text ?? ''].join('\n');
      if (kind === 'ispindel') {
        expect(text).toContain('Server address: brew.example.org');
        expect(text).toContain(`Path / URI (“Server URL” in some firmwares): /ingest/${token}`);
      } else expect(text).toContain(url);
    }
  });
  it('iSpindel and GravityMon: service type HTTP and an interval of 60 s or more', () => {
    for (const kind of ['ispindel', 'gravitymon'] as const) {
      const text = setupFor(kind, url).steps.join('\n');
      expect(text).toContain('“HTTP”');
      expect(text).toMatch(/60 seconds or more/);
    }
  });
  it('a snippet comes with the words of its copy button', () => {
    expect(setupFor('rapt', url).snippet?.copy).toBe('Copy template');
    expect(setupFor('generic', url).snippet?.copy).toBe('Copy command');
    expect(setupFor('tilt', url).snippet).toBeUndefined();
  });
  it('Tilt: the Cloud URL of the app’s logging', () => {
    expect(setupFor('tilt', url).steps.join('\n')).toContain(`Cloud URL: ${url}`);
  });
  it('RAPT: custom webhook, POST, and the JSON template as the portal wants it', () => {
    const s = setupFor('rapt', url);
    expect(s.steps.join('\n')).toMatch(/Integrations.*Custom webhook/);
    expect(s.steps.join('\n')).toContain('Method: POST. Content type: application/json.');
    expect(s.snippet?.text).toBe(raptTemplate);
    expect(raptTemplate).toBe('{"name":"@device_name","temp":@temperature,"temp_unit":"C","gravity":@gravity,"gravity_unit":"G","battery":@battery}');
  });
  it('stream: Brewfather and Brewer’s Friend', () => {
    expect(setupFor('stream', url).steps.join('\n')).toMatch(/Brewfather.*Brewer’s Friend/);
  });
  it('generic: a JSON body that is valid JSON, in a ready command', () => {
    const s = setupFor('generic', url);
    expect(JSON.parse(genericExample)).toEqual({ gravity: 1.05, temperature: 20, temp_units: 'C' });
    expect(s.snippet?.text).toContain(`-d '${genericExample}' ${url}`);
  });
});
