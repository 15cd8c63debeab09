import { gzipSync } from 'node:zlib';
import { minifiedBuild } from './bundle.mjs';
const b = await minifiedBuild({ entryPoints: ['dist/index.js'], outfile: 'x.js' });
console.log(b.length, gzipSync(b, { level: 9 }).length);
