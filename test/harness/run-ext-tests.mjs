// Entry point; the TypeScript module runs through tsx (tsImport keeps its CommonJS/ESM interop right).
import { tsImport } from 'tsx/esm/api';
const { main } = await tsImport('./extTests.ts', import.meta.url);
await main();
