import { useEffect } from 'react';

/**
 * Names the browser tab after the page ("My tickets · Admit"), so that tabs, history and a screen
 * reader's page announcement tell pages apart. Until the title is known (rows still loading), and
 * after the page is left, the tab says "Admit".
 */
export function usePageTitle(title: string | undefined) {
  useEffect(() => {
    document.title = title ? `${title} · Admit` : 'Admit';
    return () => {
      document.title = 'Admit';
    };
  }, [title]);
}
