/**
 * Messages for the person running `pulumi`: consequences a preview must show (a replace archives the old
 * vault) and facts about an operation (an address cannot be deleted, only forgotten).
 */

/** Receives every notice; tests replace it to assert what users would see. */
export type NoticeSink = (message: string) => void;

const defaultSink: NoticeSink = (message) => {
  console.warn(`warning: ${message}`);
};

let sink: NoticeSink = defaultSink;

/** Shows a warning to the user. */
export function notifyUser(message: string): void {
  sink(message);
}

/** Replaces where notices go; returns a function that restores the previous sink. */
export function setNoticeSink(next: NoticeSink): () => void {
  const previous = sink;
  sink = next;
  return () => {
    sink = previous;
  };
}
