import { defineMessages } from 'react-intl';

export const roleNames = defineMessages({
  owner: { id: 'orgs.role.owner', defaultMessage: 'Owner' },
  admin: { id: 'orgs.role.admin', defaultMessage: 'Admin' },
  staff: { id: 'orgs.role.staff', defaultMessage: 'Door staff' },
});

export const roleColors = { owner: 'grape', admin: 'blue', staff: 'gray' } as const;
