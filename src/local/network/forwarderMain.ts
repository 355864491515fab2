/** The entry of dist/forwarder.js, run inside the sandbox by the editor's own Node (see forwarder.ts). */
import { main } from './forwarder';

void main(process.argv.slice(2));
