/**
 * `--assessments personality,interests` → [{ test_id: 6 }, { test_id: 8 }].
 * Names are the one table of api/catalog.ts (the bulk CSV validator reads the
 * same); numbers pass through so a newer catalog's ids still work.
 */
import { assessmentIdOf, TEST_ID } from '../../../api/catalog.js';

/** The names a message suggests (the table knows more). */
const ASSESSMENT_NAMES = Object.keys(TEST_ID);

/** Test ids of a comma-separated list, or a one-sentence reason it is not one. */
export function parseAssessments(text: string): { ids: number[] } | { error: string } {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) return { error: `give at least one of ${ASSESSMENT_NAMES.join(', ')} (or test ids)` };
  const ids: number[] = [];
  for (const p of parts) {
    const id = /^\d+$/.test(p) ? Number(p) : assessmentIdOf(p);
    if (!id) return { error: `"${p}" is not an assessment; use ${ASSESSMENT_NAMES.join(', ')} or test ids (see \`jobfit assessments\`)` };
    if (!ids.includes(id)) ids.push(id);
  }
  return { ids };
}
