/** The bench's row type (the table and the runner are in test/support/benchRunner.ts, where the unit tier tests them). */
export type { Row } from '../support/benchRunner';
