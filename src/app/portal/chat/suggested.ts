/**
 * Which suggested questions the chat shows: the app's `suggested_questions_random_count` of them,
 * chosen at random (0 = all of them), in the order the builder wrote them. Pure; the random source
 * can be given (tests).
 */
export function pickSuggested(questions: readonly string[], count: number, random: () => number = Math.random): string[] {
  if (count <= 0 || count >= questions.length) return [...questions];
  // A partial Fisher-Yates shuffle of the indexes: the first `count` are a uniform sample.
  const index = questions.map((_, i) => i);
  for (let i = 0; i < count; i++) {
    const j = i + Math.min(index.length - i - 1, Math.floor(random() * (index.length - i)));
    [index[i], index[j]] = [index[j], index[i]];
  }
  return index
    .slice(0, count)
    .sort((a, b) => a - b)
    .map((i) => questions[i]);
}
