/**
 * The inbox's local source (localSource.ts) as dist/extension.js carries it: the real one is built with the local
 * agents' bundle (dist/localui.js), when the first local session is listed. Before that no local ask exists, so
 * there is nothing to deliver, explain or offer: an answer for a local key finds nothing waiting (`notFound`, as the
 * real source answers for an ask it does not hold).
 */
import type { AnswerResult, RequestKey } from '../domain/model';
import type { PendingAsk } from '../local';
import type { AnswerSource } from './answerRouter';
import { isLocalSource } from './localKey';
import type { LocalProvenance, LocalSessionInfo, LocalSource } from './localSource';

export class LazyLocalSource implements AnswerSource {
  private real: LocalSource | undefined;

  /** `create` is called once, on the first session change or ask. */
  constructor(private readonly create: () => LocalSource) {}

  private get source(): LocalSource {
    this.real ??= this.create();
    return this.real;
  }

  sessionChanged(s: LocalSessionInfo): void {
    this.source.sessionChanged(s);
  }

  ask(s: LocalSessionInfo, ask: PendingAsk): void {
    this.source.ask(s, ask);
  }

  provenance(key: RequestKey): LocalProvenance | undefined {
    return this.real?.provenance(key);
  }

  askOf(key: RequestKey): ReturnType<LocalSource['askOf']> {
    return this.real?.askOf(key);
  }

  owns(key: RequestKey): boolean {
    return isLocalSource(key.server);
  }

  send(key: RequestKey, optionId: string): Promise<AnswerResult> {
    return this.real ? this.real.send(key, optionId) : Promise.resolve({ kind: 'notFound' });
  }
}
