import { describe, expect, it } from 'vitest';
import { CATALOG_SHORT_NAMES, DIMENSION_CATALOG } from '../../src/api/catalog.js';
import { ALL_SCORE_SHORT_NAMES, DIMENSIONS } from '../../src/stub/catalog-content.js';

describe('the dimension catalog', () => {
  it('is the one in src/api: the stub decorates exactly those dimensions and facets, in the same order', () => {
    expect([...ALL_SCORE_SHORT_NAMES]).toEqual([...CATALOG_SHORT_NAMES]);
    for (const [section, dims] of Object.entries(DIMENSION_CATALOG)) {
      const stub = DIMENSIONS.filter((d) => d.section === section).map((d) => [d.short_name, ...d.facets.map((f) => f.short_name)]);
      expect(stub, section).toEqual(dims.map((d) => [...d]));
    }
  });

  it('has the reference count: 13 dimensions, 48 short names', () => {
    expect(Object.values(DIMENSION_CATALOG).flat().length).toBe(13);
    expect(CATALOG_SHORT_NAMES.length).toBe(48);
    expect(new Set(CATALOG_SHORT_NAMES).size).toBe(48);
  });
});
