import { Menu, type MenuItemProps } from '@mantine/core';
import { createLink } from '@tanstack/react-router';
import type { AnchorHTMLAttributes, Ref } from 'react';

// Apart from lib/links.tsx, which the public pages' first load carries: Mantine's Menu stays out of it.

type MenuItemAnchorProps = MenuItemProps & AnchorHTMLAttributes<HTMLAnchorElement> & { ref?: Ref<HTMLAnchorElement> };

/** An item of a Mantine menu that is a typed router link (a `menuitem` to screen readers). */
export const MenuItemLink = createLink((props: MenuItemAnchorProps) => <Menu.Item component="a" {...props} />);
