/** API-shaped objects for formatter tests (shapes per the API reference). */
export const invitation = {
  mode: 'test',
  object: 'invitation',
  id: 101,
  invited_by_user: null,
  created_at: '2024-05-01T10:00:00Z',
  accepted_at: null,
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  send_via_email: true,
  phone: '+14155550100',
  send_via_sms: false,
  custom_id: '=HYPERLINK("http://evil")',
  person_id: null,
  team: { id: 7, display_name: 'Sales' },
  account: { id: 1, display_name: 'Acme' },
  invitation_assessments: [
    { id: 6, display_name: 'Personality Traits', short_name: 'Personality' },
    { id: 8, display_name: 'Career Interests', short_name: 'Interests' },
  ],
  test_taker_id: null,
};

export function listItem(i: number, extra: Record<string, unknown> = {}) {
  return {
    object: 'invitation_list_item',
    id: i,
    first_name: `First${i}`,
    last_name: `Last${i}`,
    email: `p${i}@example.com`,
    created_at: '2024-05-01T10:00:00Z',
    accepted_at: null,
    assessment_url: `https://assess.example.com/start/${i}`,
    test_taker_id: null,
    custom_id: null,
    person_id: null,
    team: { id: 7, display_name: 'Sales' },
    account: { id: 1, display_name: 'Acme' },
    ...extra,
  };
}

export function envelope(n: number, total = n) {
  return { mode: 'test', object: 'list', total_count: total, has_more: total > n, data: Array.from({ length: n }, (_, i) => listItem(i + 1)) };
}
