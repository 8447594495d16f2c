// lib/runner/start-target.ts startedTargetNote: reproduction commands of a target the harness
// started say so, and how to start it again on the port the commands use. leanReferenceServer:
// only the harness's own reference server is started with Node options of the harness's choosing.
import { describe, expect, it } from 'vitest';
import { validateTarget } from '../../../lib/config/load-target.ts';
import { harnessCommand } from '../../../lib/paths.ts';
import { leanReferenceServer, startedTargetNote } from '../../../lib/runner/start-target.ts';

const base = { name: 'mine', baseUrl: 'http://127.0.0.1:4321/v1', keys: [{ key: 'k-1234567890', plan: 'free' }] };

describe('startedTargetNote', () => {
  it('is empty for a target someone else runs', () => {
    expect(startedTargetNote(validateTarget(base, '/srv/targets/mine.yaml', {}), undefined)).toEqual([]);
  });

  it('names the command, its directory and the port, as shell comments', () => {
    const target = validateTarget({ ...base, start: { command: 'node server.js --port 4321', cwd: '..' } }, '/srv/targets/mine.yaml', {});
    expect(startedTargetNote(target, 4321)).toEqual([
      '# The harness started this target for the run and stopped it after; start it again first:',
      "#   (cd /srv && PORT=4321 node server.js --port 4321)",
    ]);
  });

  it('points at start.env without repeating its values, which may be secrets', () => {
    const target = validateTarget({ ...base, start: { command: 'node server.js', env: { DB_PASSWORD: 'hunter2' } } }, '/srv/targets/mine.yaml', {});
    const note = startedTargetNote(target, 4321).join('\n');
    expect(note).toContain('with start.env from /srv/targets/mine.yaml');
    expect(note).not.toContain('hunter2');
  });
});

describe('leanReferenceServer', () => {
  it('gives the harness\'s own reference server a small young generation and one V8 helper thread', () => {
    expect(leanReferenceServer(`${harnessCommand()} serve --config local --port 4321`, undefined)).toEqual({ NODE_OPTIONS: '--max-semi-space-size=1 --v8-pool-size=1' });
  });

  it('adds to the NODE_OPTIONS already set', () => {
    expect(leanReferenceServer(`${harnessCommand()} serve`, '--enable-source-maps')).toEqual({ NODE_OPTIONS: '--enable-source-maps --max-semi-space-size=1 --v8-pool-size=1' });
  });

  it('leaves any other command as it is', () => {
    expect(leanReferenceServer('node server.js --port 4321', '--enable-source-maps')).toEqual({});
    expect(leanReferenceServer(`${harnessCommand()} --list-checks`, undefined)).toEqual({});
  });
});
