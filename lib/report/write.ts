// Writing a run's reports to disk. Every byte passes the redactor first: no key reaches a file.
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Report } from '../result/model.ts';
import { renderHtml } from './html.ts';
import { renderCtrf } from './ctrf.ts';
import { renderJunit } from './junit.ts';

export interface WrittenReports {
  dir: string;
  files: string[];
}

export function writeReports(report: Report, dir: string, scrub: (text: string) => string): WrittenReports {
  mkdirSync(dir, { recursive: true });
  const outputs: [string, string][] = [
    ['report.json', `${JSON.stringify(report, null, 2)}\n`],
    ['report.html', renderHtml(report)],
    ['junit.xml', renderJunit(report)],
    ['ctrf.json', renderCtrf(report)],
  ];
  const files = outputs.map(([name, text]) => {
    const file = path.join(dir, name);
    writeFileSync(file, scrub(text));
    return file;
  });
  return { dir, files };
}

/** `reports/<target>/latest` pointing at the newest run, replaced atomically. */
export function linkLatest(runDir: string): void {
  const parent = path.dirname(runDir);
  const link = path.join(parent, 'latest');
  const temp = path.join(parent, `.latest-${process.pid}`);
  rmSync(temp, { force: true });
  symlinkSync(path.basename(runDir), temp);
  renameSync(temp, link);
}

/** reports/<target>/2026-11-21T10-04-05Z: UTC, sortable, no colons (safe on every file system). */
export function timestampDir(root: string, target: string, at: Date): string {
  const stamp = at.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/:/g, '-');
  return path.join(root, target, stamp);
}
