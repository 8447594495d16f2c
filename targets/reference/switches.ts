// What faults and variations have in common: a catalogue of named switches, some of which rewrite
// the finished Reply; the rest are flags the handler asks about at one hook point.
import type { Reply, ReplyContext, ReplyRewrite } from './http.ts';

export interface Switch<Id extends string> {
  readonly id: Id;
  readonly rewrite?: ReplyRewrite;
}

export class Switches<Id extends string> {
  private readonly active: ReadonlySet<Id>;
  private readonly rewrites: readonly ReplyRewrite[];
  /** Whether any active switch rewrites replies (when none does, `rewrite` returns the reply as it is). */
  readonly rewriting: boolean;

  constructor(
    private readonly catalogue: readonly Switch<Id>[],
    ids: Iterable<Id>,
  ) {
    this.active = new Set(ids);
    this.rewrites = catalogue.filter((s) => this.active.has(s.id)).flatMap((s) => (s.rewrite ? [s.rewrite] : []));
    this.rewriting = this.rewrites.length > 0;
  }

  has(id: Id): boolean {
    return this.active.has(id);
  }

  /** Active ids in catalogue order. */
  list(): Id[] {
    return this.catalogue.map((s) => s.id).filter((id) => this.active.has(id));
  }

  /** Applies the rewrite of every active switch, in catalogue order. */
  rewrite(reply: Reply, context: ReplyContext): Reply {
    return this.rewrites.reduce((current, rewrite) => rewrite(current, context), reply);
  }
}
