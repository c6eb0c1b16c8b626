import { Anchor, Button, type AnchorProps, type ButtonProps } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { createLink } from '@tanstack/react-router';
import type { AnchorHTMLAttributes, Ref } from 'react';

type ButtonAnchorProps = ButtonProps & AnchorHTMLAttributes<HTMLAnchorElement> & { ref?: Ref<HTMLAnchorElement> };
type AnchorAnchorProps = AnchorProps & AnchorHTMLAttributes<HTMLAnchorElement> & { ref?: Ref<HTMLAnchorElement> };

/** A Mantine button that is a typed router link (params and search checked against the routes). */
export const ButtonLink = createLink((props: ButtonAnchorProps) => <Button component="a" {...props} />);

/** A Mantine anchor that is a typed router link. */
export const AnchorLink = createLink((props: AnchorAnchorProps) => <Anchor {...props} />);

/**
 * "← Back to the event": a small link with an arrow that points back in the reading direction
 * (it mirrors right to left, see app.css).
 */
export const BackLink = createLink(({ children, ...props }: AnchorAnchorProps) => (
  <Anchor size="sm" {...props} style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
    <IconArrowLeft size={14} aria-hidden className="mirror-in-rtl" />
    {children}
  </Anchor>
));
