export type KeyMode = 'live' | 'test';

export interface ProfileInviteDefaults {
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
  /**
   * Keys kept in the OS keyring, by mode: the file holds only their masked form
   * (`sk_live_…a1b2`), and the key lives under service `jobfit`, account
   * `<profile>/<mode>`, or `<profile>/<mode>@<folder>` with JOBFIT_CONFIG_DIR
   * (config/keyring.ts). A plain key above wins over it.
   */
  keyring?: Partial<Record<KeyMode, string>>;
  default_mode?: KeyMode;
  invite_defaults?: ProfileInviteDefaults;
}

export interface ConfigData {
  current_profile?: string;
  profiles?: Record<string, Profile>;
}
