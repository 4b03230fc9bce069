/**
 * What an intake task answers when it refuses a request as it is: a gRPC status and its
 * details, sent back to the client unchanged. A task's other answers are its own types.
 */
import type { status as grpcStatus } from '@grpc/grpc-js';

export interface IntakeRefusal {
  refused: { code: grpcStatus; details: string };
}

export function isIntakeRefusal(v: unknown): v is IntakeRefusal {
  return typeof v === 'object' && v !== null && 'refused' in v;
}
