/**
 * The answer path across sources: every source's session registers its AnswerSender with the key test that says
 * which requests are its own (a Fountain session: its server URL; a local agent source: its own source id), and the
 * answer flow sends through this router. A request no source claims is not sent (a retryable `network` result).
 */
import type { AnswerSender } from '../domain/answering';
import type { AnswerResult, RequestKey } from '../domain/model';
import type { IDisposable } from '../util/lifecycle';

export interface AnswerSource extends AnswerSender {
  /** True for the requests this source delivers answers for. */
  owns(key: RequestKey): boolean;
}

export class AnswerRouter implements AnswerSender {
  private readonly sources = new Set<AnswerSource>();

  add(source: AnswerSource): IDisposable {
    this.sources.add(source);
    return { dispose: () => void this.sources.delete(source) };
  }

  send(key: RequestKey, optionId: string): Promise<AnswerResult> {
    for (const s of this.sources) {
      if (s.owns(key)) {
        return s.send(key, optionId);
      }
    }
    return Promise.resolve({ kind: 'network', message: `no connection for ${key.server}` });
  }
}
