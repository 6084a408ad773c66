// The deal commitments this browser received at the table (deal_committed: the SHA-256 of
// each deal's seed, sent before its cards), kept per game. The seeds are revealed after the
// hands; the replay checks them against these. The server's own record cannot prove that
// its deals were fixed in advance (a record's commitment is the hash of its own seed): what
// the players' browsers were sent before the deal can.
const KEY = "hokm.commitments";
const GAMES_KEPT = 40;

function load() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "{}");
    return data && typeof data === "object" && Array.isArray(data.order) && data.games && typeof data.games === "object" ? data : { order: [], games: {} };
  } catch {
    return { order: [], games: {} };
  }
}

/** The game's id as the server names it (``CODE-N``: ``docs/protocol.md``). */
export const gameIdOf = (room, game) => `${String(room).toUpperCase()}-${game}`;

/** Keep ``commitment``, received before hand ``hand`` (from 0) of game ``game`` of ``room``
 * was dealt (a redeal's deals share the hand's number). */
export function rememberCommitment(room, game, hand, commitment) {
  if (!room || !Number.isInteger(game) || !Number.isInteger(hand) || typeof commitment !== "string") return;
  update(room, game, (hands) => {
    const seen = (hands[hand] ||= []);
    if (seen.includes(commitment)) return false;
    seen.push(commitment);
    return true;
  });
}

/** Note that this page saw hand ``hand`` of the game end at the table (its ``hand_ended``):
 * it was there for the deal that was played, so it had that deal's commitment (sent before
 * the deal, or with the snapshot or the missed events of a page (re)loaded during the hand).
 * A browser that has only the commitment of a deal redealt before it left before that deal. */
export function rememberHandEnded(room, game, hand) {
  if (!room || !Number.isInteger(game) || !Number.isInteger(hand)) return;
  update(room, game, (hands) => {
    if (!Array.isArray(hands[hand])) return false; // (no commitment of it kept: nothing to say)
    const ended = (hands.ended = Array.isArray(hands.ended) ? hands.ended : []);
    if (ended.includes(hand)) return false;
    ended.push(hand);
    return true;
  });
}

/** Whether this page saw hand ``hand`` of the game ``gameId`` end at the table. */
export function sawHandEnd(gameId, hand) {
  const ended = load().games[String(gameId).toUpperCase()]?.ended;
  return Array.isArray(ended) && ended.includes(hand);
}

function update(room, game, change) {
  const data = load();
  const id = gameIdOf(room, game);
  const hands = (data.games[id] ||= {});
  if (!change(hands)) return;
  data.order = [...data.order.filter((x) => x !== id), id];
  for (const old of data.order.splice(0, Math.max(0, data.order.length - GAMES_KEPT))) delete data.games[old];
  try {
    localStorage.setItem(KEY, JSON.stringify(data));
  } catch {
    // (storage full or refused: the replay then says this browser has no commitment)
  }
}

/** The commitments this browser received for hand ``hand`` of the game ``gameId``. */
export function seenCommitments(gameId, hand) {
  const seen = load().games[String(gameId).toUpperCase()]?.[hand];
  return Array.isArray(seen) ? seen.filter((c) => typeof c === "string") : [];
}
