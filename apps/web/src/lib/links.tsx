import { Anchor, Button, type AnchorProps, type ButtonProps } from '@mantine/core';
import { createLink } from '@tanstack/react-router';
import type { AnchorHTMLAttributes, Ref } from 'react';

type ButtonAnchorProps = ButtonProps & AnchorHTMLAttributes<HTMLAnchorElement> & { ref?: Ref<HTMLAnchorElement> };
type AnchorAnchorProps = AnchorProps & AnchorHTMLAttributes<HTMLAnchorElement> & { ref?: Ref<HTMLAnchorElement> };

/** A Mantine button that is a typed router link (params and search checked against the routes). */
export const ButtonLink = createLink((props: ButtonAnchorProps) => <Button component="a" {...props} />);

/** A Mantine anchor that is a typed router link. */
export const AnchorLink = createLink((props: AnchorAnchorProps) => <Anchor {...props} />);
