/**
 * A coded refusal: a request answered "no" with a stable `code` and a message for people.
 * Each domain has one subclass with its own code list (the sequencer's SubmitError, the
 * order book's DexRefusal, the explorer's ChainRefusal, the indexer's IndexerRefusal), and
 * each face maps a domain's codes to its protocol once (an HTTP status table, a gRPC
 * status table). A refusal is an answer, not a fault: it carries no stack (StacklessError)
 * and is never logged as an error. Faults stay plain Errors.
 */
import { StacklessError } from './stackless-error.js';

export class Refusal<C extends string = string> extends StacklessError {
  readonly code: C;
  constructor(code: C, message: string) {
    super(message);
    this.name = 'Refusal';
    this.code = code;
  }
}
