export type Mode = 'live' | 'test';

export interface InviteDefaults {
  created_by?: string;
  team_id?: number;
  assessments?: number[];
  email_template_id?: number;
  send_via?: string;
}

export interface Profile {
  base_url?: string;
  live_key?: string;
  test_key?: string;
  default_mode?: Mode;
  invite_defaults?: InviteDefaults;
}

export interface ConfigData {
  current_profile?: string;
  profiles?: Record<string, Profile>;
}
