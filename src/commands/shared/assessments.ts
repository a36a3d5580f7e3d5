/**
 * `--assessments personality,interests` → [{ test_id: 6 }, { test_id: 8 }].
 * Names are the catalog's (reference: "Assessment identifiers"); numbers pass
 * through so a newer catalog's ids still work.
 */
const BY_NAME: Record<string, number> = {
  prescreen: 1,
  personality: 6,
  'personality-traits': 6,
  traits: 6,
  thinking: 7,
  'thinking-skills': 7,
  interests: 8,
  'career-interests': 8,
};

export const ASSESSMENT_NAMES = ['prescreen', 'personality', 'thinking', 'interests'];

/** Test ids of a comma-separated list, or a one-sentence reason it is not one. */
export function parseAssessments(text: string): { ids: number[] } | { error: string } {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) return { error: `give at least one of ${ASSESSMENT_NAMES.join(', ')} (or test ids)` };
  const ids: number[] = [];
  for (const p of parts) {
    const key = p.toLowerCase().replace(/[\s_]+/g, '-');
    const id = /^\d+$/.test(p) ? Number(p) : BY_NAME[key];
    if (!id) return { error: `"${p}" is not an assessment; use ${ASSESSMENT_NAMES.join(', ')} or test ids (see \`jobfit assessments\`)` };
    if (!ids.includes(id)) ids.push(id);
  }
  return { ids };
}
