// The reference server's answers in one functional run validate against openapi.yaml's
// description (test/support/openapi-exchanges.ts); a fault that answers a Pet without id does not,
// and the mismatch names its operation and status.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FaultId } from '../../targets/reference/faults.ts';
import { startReferenceServer } from '../../targets/reference/server.ts';
import { exchangeChecker, type Mismatch } from '../support/openapi-exchanges.ts';
import { KEYS, PLANS, WINDOWS } from '../support/fault-catalogue.ts';
import { runCli, tempDir, writeTarget } from './cli-helpers.ts';

const dir = tempDir('openapi');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function mismatchesOf(name: string, faults: FaultId[]): Promise<{ judged: number; mismatches: Mismatch[] }> {
  const server = await startReferenceServer({ keys: KEYS, plans: PLANS, windows: WINDOWS, faults });
  try {
    const reports = path.join(dir, name);
    await runCli(['--target', writeTarget(dir, { name, baseUrl: server.baseUrl, keys: KEYS, plans: PLANS, windows: WINDOWS, allow: { writes: true } }, `${name}.yaml`), '--report-dir', reports, '--seed', '1', '--quiet', '--suite', 'auth,create-pet,get-pet,list-pets']);
    const { check, described } = exchangeChecker();
    const exchanges = readFileSync(path.join(reports, 'exchanges.jsonl'), 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Parameters<typeof check>[0]);
    const mismatches = exchanges.flatMap((e) => check(e) ?? []);
    return { judged: described(), mismatches };
  } finally {
    await server.close();
  }
}

describe.concurrent('the reference server against openapi.yaml', () => {
  it.concurrent('answers every exchange of a functional run as the document describes', async () => {
    const { judged, mismatches } = await mismatchesOf('plain', []);
    // Exchanges of an operation, answered with a status it lists: judged against the document.
    expect(judged).toBeGreaterThan(200);
    expect(mismatches).toEqual([]);
  });

  it.concurrent('a Pet without id (fault list-pet-missing-id) is a mismatch named by operation and status', async () => {
    const { mismatches } = await mismatchesOf('missing-id', ['list-pet-missing-id']);
    expect(mismatches.length).toBeGreaterThan(0);
    expect(mismatches[0]).toEqual({ at: 'listPets 200', seq: expect.any(Number), problem: expect.stringContaining("must have required property 'id'") });
  });
});
