/**
 * Intake: requests decoded and checked off the main thread and taken up in their arrival
 * order. The arrival line (ArrivalQueue, its limit and its Fifo), the intake threads where
 * each service registers its task (IntakePool), and a task's refusal (interface.ts).
 */
export { type Refusal, isRefusal } from './interface.js';
export { ArrivalQueue, MAX_ARRIVALS_WAITING } from './arrivals.js';
export { Fifo } from './fifo.js';
export { IntakePool } from './pool.js';
