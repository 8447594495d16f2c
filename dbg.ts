import { startReferenceServer } from '/work/main/targets/reference/server.ts';
import { writeFileSync } from 'node:fs';
const KEYS = [{ key: 'k-free-1-aaaa', plan: 'free' }, { key: 'k-free-2-bbbb', plan: 'free' }, { key: 'k-pro-1-cccc', plan: 'pro' }, { key: 'k-daily-1-dddd', plan: 'daily' }];
const s = await startReferenceServer({ keys: KEYS, plans: { daily: { perMinute: 40, perDay: 100 } }, windows: { minute: 2, day: 30 }, variations: [process.argv[2]] } as any);
writeFileSync('/tmp/dbg.yaml', `name: dbg\nbaseUrl: ${s.baseUrl}\nkeys:\n${KEYS.map(k => `  - { key: ${k.key}, plan: ${k.plan} }`).join('\n')}\nplans: { daily: { perMinute: 40, perDay: 100 } }\nwindows: { minute: 2, day: 30 }\nallow: { writes: true, load: true }\n`);
console.log('ready'); setTimeout(() => s.close(), 60000);
