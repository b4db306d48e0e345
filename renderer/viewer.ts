/**
 * Who this window acts for (`whoAmI`): on a team server the signed-in person and their role, null
 * on the desktop (one person, who may do everything). The UI hides what the role cannot do; main
 * checks every call anyway (main/team/access.ts), so this is only a convenience. Asked once per
 * page, and only on a team server (a session's person does not change; a new sign-in loads the
 * page again); the desktop and the loopback web host have no sign-in, so main is not even asked.
 */
import { useEffect } from 'react';
import { create } from 'zustand';
import { roleAllows, type ApiAccess, type Viewer } from '../shared/contract/roles';
import { getApi } from './api';
import { isTeamServer } from './api/team-session';

/** undefined until `whoAmI` answered. */
const useViewerStore = create<{ viewer: Viewer | null | undefined }>(() => ({ viewer: undefined }));
let asked = false;

/** The person this window acts for: undefined while asking, null on the desktop (or when the answer failed: main still checks). */
export function useViewer(): Viewer | null | undefined {
  const viewer = useViewerStore((s) => s.viewer);
  const team = isTeamServer();
  useEffect(() => {
    if (asked || !team) return;
    asked = true;
    getApi()
      .whoAmI({})
      .then(
        (v) => useViewerStore.setState({ viewer: v }),
        () => useViewerStore.setState({ viewer: null }),
      );
  }, [team]);
  return team ? viewer : null;
}

/**
 * Whether `viewer` may call methods needing `access` (and, for `decide`, about an item of
 * `serverId`: a reviewer assigned to servers decides only theirs). True on the desktop and while
 * the answer is not in (the buttons then show as they always did).
 */
export function viewerMay(viewer: Viewer | null | undefined, access: ApiAccess, serverId?: string): boolean {
  if (!viewer) return true;
  if (!roleAllows(viewer.role, access)) return false;
  return !(access === 'decide' && viewer.role === 'reviewer' && viewer.servers && serverId !== undefined && !viewer.servers.includes(serverId));
}

/** {@link viewerMay} for this window's person. */
export function useMay(access: ApiAccess, serverId?: string): boolean {
  return viewerMay(useViewer(), access, serverId);
}
