/**
 * Series colours of the statistics charts: Blueprint's mid tones (the "3" shades), which keep their
 * contrast on the light and the dark background alike. Axis, grid and tooltip colours come from CSS
 * variables in stats.css that follow the theme.
 */
import { Colors } from '@blueprintjs/core';

/** By call status code 0..9 (docs/product/states.md#call-statuses). */
export const CALL_STATUS_COLORS = [
  Colors.GRAY3, // WAITING
  Colors.BLUE3, // TALKING
  Colors.ORANGE3, // MISSED
  Colors.GREEN3, // COMPLETE
  Colors.GOLD3, // INCOMPLETE
  Colors.VIOLET3, // ESCALATED
  Colors.SEPIA3, // BAD QUALITY
  Colors.RED3, // CONNECTION ERROR
  Colors.CERULEAN3, // DISCONNECTED
  Colors.ROSE3, // SUSPICIOUS
] as const;

/** By profile status (PROFILE_STATUSES order). */
export const PROFILE_STATUS_COLORS = [
  Colors.GRAY3, // Created
  Colors.GOLD3, // Incomplete
  Colors.SEPIA3, // Pending Upload
  Colors.ORANGE3, // Pending Review
  Colors.VIOLET3, // Pending Approval
  Colors.BLUE3, // Temporarily Approved
  Colors.CERULEAN3, // Temp. Approval Expired
  Colors.GREEN3, // Approved
  Colors.RED3, // Rejected
  Colors.ROSE3, // Blacklisted
  Colors.DARK_GRAY5, // Inactive
] as const;

export const OUTCOME_COLORS = {
  positive: Colors.GREEN3,
  mild: Colors.TURQUOISE3,
  warning: Colors.ORANGE3,
  negative: Colors.RED3,
  severe: Colors.VERMILION3,
  neutral: Colors.GRAY3,
  primary: Colors.BLUE3,
} as const;
