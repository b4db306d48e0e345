/**
 * Who this window acts for (`whoAmI`): null on the desktop and the loopback web host (no sign-in:
 * main is not even asked), the signed-in person on a team server. Asked once per window; every
 * component reads the same answer.
 */
import { useEffect, useState } from 'react';
import type { Viewer } from '../../../shared/contract/roles';
import { getApi } from '../../api';
import { isTeamServer } from '../../api/team-session';

let asked: Promise<Viewer | null> | undefined;

/** The window's viewer: undefined while asking, then the person or null. */
export function useViewer(): Viewer | null | undefined {
  const [viewer, setViewer] = useState<Viewer | null | undefined>(isTeamServer() ? undefined : null);
  useEffect(() => {
    if (!isTeamServer()) return;
    let live = true;
    asked ??= getApi()
      .whoAmI({})
      .catch(() => {
        asked = undefined; // asked again by the next component that mounts
        return null;
      });
    void asked.then((v) => live && setViewer(v));
    return () => {
      live = false;
    };
  }, []);
  return viewer;
}
