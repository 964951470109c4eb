#!/usr/bin/env node
// `npm pack` hooks: `copy` puts the repository's .proto files into this folder's proto/ for the
// tarball (an installed package has no repository around it to read them from), `remove` takes them
// out again, so the repository itself keeps no copy of the contract (src/proto.js reads ../../proto).
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const REPO_PROTO = fileURLToPath(new URL('../../../proto/sheepfold/v1', import.meta.url));
const PACKED = fileURLToPath(new URL('../proto', import.meta.url));

const mode = process.argv[2];
rmSync(PACKED, { recursive: true, force: true });
if (mode === 'copy') {
  const files = readdirSync(REPO_PROTO).filter((name) => name.endsWith('.proto'));
  for (const name of files) cpSync(path.join(REPO_PROTO, name), path.join(PACKED, 'sheepfold', 'v1', name));
} else if (mode !== 'remove') {
  process.stderr.write('usage: node scripts/pack-proto.js copy|remove\n');
  process.exitCode = 2;
}
