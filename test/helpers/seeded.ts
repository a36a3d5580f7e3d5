/**
 * The people of the stub's seed that tests act as (src/stub/seed.json): the
 * users who invite, with the defaults each one has. One copy for every test.
 */
export const DANA = 'dana.whitfield@northwind-talent.example'; // all defaults, notifies on completion (account 1)
export const MARCO = 'marco.bellini@northwind-talent.example'; // team 12, Prescreen, no template
export const INGRID = 'ingrid.halvorsen@northwind-talent.example'; // no defaults
export const TOMAS = 'tomas.oneill@northwind-talent.example'; // team 13, [6, 8], template 303
export const RUTH = 'ruth.achterberg@bluefield-care.example'; // account 2
