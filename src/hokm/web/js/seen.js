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
  const data = load();
  const id = gameIdOf(room, game);
  const hands = (data.games[id] ||= {});
  const seen = (hands[hand] ||= []);
  if (seen.includes(commitment)) return;
  seen.push(commitment);
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
