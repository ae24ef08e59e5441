/**
 * A share of the latency benchmark's emulated browsers, run in a worker thread: each opens the
 * event stream on a bare socket, applies every frame with the SDK's reducer and records when.
 * Several workers split the streams so that no single heap holds thousands of client states:
 * one garbage collection then stalls a share of the clients, not all of them at once.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { applyEvent, type SyncState } from '@webbridge/client-sdk';
import { eventOf, openRawStream, type RawStream } from './rawStream';
import { preciseNow } from './table';

/** What the coordinator gives each worker. */
export interface ClientsInput {
  readonly port: number;
  readonly accessCode: string;
  readonly count: number;
  /** Room for this many applied frames per client while recording. */
  readonly frames: number;
  /** The host's authority (PEM) when it speaks HTTPS. */
  readonly ca?: string | undefined;
}

/** Coordinator → worker. */
export type ClientsCommand =
  | { type: 'lowestSeq' }
  | { type: 'record' }
  | { type: 'collect' }
  | { type: 'close' };

/** Worker → coordinator, one answer per command (after `ready`). */
export type ClientsAnswer =
  | { type: 'ready' }
  | { type: 'lowestSeq'; seq: number; resyncs: number }
  | { type: 'recording' }
  | { type: 'collected'; records: Float64Array[]; counts: number[]; resyncs: number; overflow: number }
  | { type: 'closed' };

interface Client {
  state: SyncState | null;
  stream: RawStream;
  /** [seq, applied at] of every state frame applied since recording started. */
  applied: Float64Array;
  recorded: number;
}

async function run(input: ClientsInput): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('latencyClients runs as a worker thread');
  const clients: Client[] = [];
  let resyncs = 0;
  /** Frames applied while recording that did not fit a client's record (must stay 0). */
  let overflow = 0;
  let recording = false;
  for (let i = 0; i < input.count; i++) {
    const client: Client = {
      state: null,
      applied: new Float64Array(2 * input.frames),
      recorded: 0,
      stream: undefined as unknown as RawStream,
    };
    client.stream = openRawStream({
      port: input.port,
      accessCode: input.accessCode,
      ca: input.ca,
      onFrame(frame) {
        const event = eventOf(frame);
        if (event === undefined) return;
        const result = applyEvent(client.state, event);
        const at = preciseNow();
        if (result.kind !== 'applied') {
          resyncs++;
          return;
        }
        client.state = result.state;
        if (!recording) return;
        if (client.recorded === client.applied.length) {
          overflow++;
          return;
        }
        client.applied[client.recorded++] = result.state.seq;
        client.applied[client.recorded++] = at;
      },
    });
    clients.push(client);
    // Open in batches, so the host's accept queue never overflows.
    if (i % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const send = (answer: ClientsAnswer, transfer: ArrayBuffer[] = []) => port.postMessage(answer, transfer);
  port.on('message', (command: ClientsCommand) => {
    switch (command.type) {
      case 'lowestSeq': {
        let seq = Number.POSITIVE_INFINITY;
        for (const client of clients) seq = Math.min(seq, client.state?.seq ?? -1);
        send({ type: 'lowestSeq', seq, resyncs });
        break;
      }
      case 'record':
        // A new recording: the previous arrays went to the coordinator.
        for (const client of clients) {
          client.applied = new Float64Array(2 * input.frames);
          client.recorded = 0;
        }
        recording = true;
        send({ type: 'recording' });
        break;
      case 'collect': {
        const records = clients.map((c) => c.applied);
        send(
          {
            type: 'collected',
            records,
            counts: clients.map((c) => c.recorded),
            resyncs,
            overflow,
          },
          records.map((r) => r.buffer as ArrayBuffer),
        );
        break;
      }
      case 'close':
        for (const client of clients) client.stream.close();
        send({ type: 'closed' });
        break;
      default:
        command satisfies never;
    }
  });
  send({ type: 'ready' });
}

await run(workerData as ClientsInput);
