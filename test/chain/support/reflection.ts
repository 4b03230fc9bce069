/** grpc.reflection.v1 list_services and grpc.health.v1 Check, as grpcurl and load balancers use them. */
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { protoPath as healthProto } from 'grpc-health-check';
import { createRequire } from 'node:module';

export async function listServices(address: string): Promise<string[]> {
  const require = createRequire(import.meta.url);
  const reflectionProto = require.resolve('@grpc/reflection/build/proto/grpc/reflection/v1/reflection.proto');
  const pkg = grpc.loadPackageDefinition(protoLoader.loadSync(reflectionProto, { keepCase: true })) as unknown as {
    grpc: { reflection: { v1: { ServerReflection: grpc.ServiceClientConstructor } } };
  };
  const c = new pkg.grpc.reflection.v1.ServerReflection(address, grpc.credentials.createInsecure());
  const call = (
    c as unknown as {
      ServerReflectionInfo(): grpc.ClientDuplexStream<
        object,
        { list_services_response: { service: Array<{ name: string }> } }
      >;
    }
  ).ServerReflectionInfo();
  try {
    return await new Promise<string[]>((resolve, reject) => {
      call.on('data', (msg) => resolve(msg.list_services_response.service.map((s: { name: string }) => s.name)));
      call.on('error', reject);
      call.write({ list_services: '' });
    });
  } finally {
    call.end();
    c.close();
  }
}

export async function healthOf(address: string, service: string): Promise<string> {
  const pkg = grpc.loadPackageDefinition(
    protoLoader.loadSync(healthProto, { keepCase: true, enums: String }),
  ) as unknown as {
    grpc: { health: { v1: { Health: grpc.ServiceClientConstructor } } };
  };
  const c = new pkg.grpc.health.v1.Health(address, grpc.credentials.createInsecure()) as unknown as grpc.Client & {
    Check(req: object, cb: (err: grpc.ServiceError | null, res: { status: string }) => void): void;
  };
  try {
    return await new Promise<string>((resolve, reject) =>
      c.Check({ service }, (err, res) => (err ? reject(err) : resolve(res.status))),
    );
  } finally {
    c.close();
  }
}
