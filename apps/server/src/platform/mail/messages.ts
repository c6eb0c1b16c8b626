import type { MessageDescriptor } from '@formatjs/intl';

/**
 * Every email and text message Admit sends, as ICU messages with their English text; de.json in
 * ./locales is the German catalog (mail-messages.test.ts keeps it complete and its arguments equal).
 */
export const mailMessages = {
  greeting: { id: 'mail.greeting', defaultMessage: '{name, select, other {Hello {name},} none {Hello,}}' },
  footer: {
    id: 'mail.footer',
    defaultMessage: 'Admit — tickets and check-in. You get this email because someone used this address on {host}.',
  },
  buttonFallback: {
    id: 'mail.buttonFallback',
    defaultMessage: 'If the button does not work, copy this address into your browser:',
  },

  verifySubject: { id: 'mail.verify.subject', defaultMessage: 'Verify your email for Admit' },
  verifyIntro: {
    id: 'mail.verify.intro',
    defaultMessage: 'Verify your email address to finish signing up for Admit.',
  },
  verifyAction: { id: 'mail.verify.action', defaultMessage: 'Verify my email' },
  verifyIgnore: { id: 'mail.verify.ignore', defaultMessage: 'If you did not sign up, ignore this email.' },

  changeEmailSubject: { id: 'mail.changeEmail.subject', defaultMessage: 'Confirm your new email for Admit' },
  changeEmailIntro: {
    id: 'mail.changeEmail.intro',
    defaultMessage: 'Confirm that this is your new email address for Admit.',
  },
  changeEmailAction: { id: 'mail.changeEmail.action', defaultMessage: 'Use this address' },
  changeEmailIgnore: {
    id: 'mail.changeEmail.ignore',
    defaultMessage: 'Until you do, your account keeps its old address. If you did not ask for this, ignore this email.',
  },

  resetSubject: { id: 'mail.reset.subject', defaultMessage: 'Reset your Admit password' },
  resetIntro: { id: 'mail.reset.intro', defaultMessage: 'Choose a new password for Admit.' },
  resetAction: { id: 'mail.reset.action', defaultMessage: 'Choose a new password' },
  resetIgnore: {
    id: 'mail.reset.ignore',
    defaultMessage:
      'The link works once, for one hour. If you did not ask for this, ignore this email: your password stays as it is.',
  },

  linkSubject: { id: 'mail.link.subject', defaultMessage: 'Your sign-in link for Admit' },
  linkIntro: { id: 'mail.link.intro', defaultMessage: 'Sign in to Admit with this link.' },
  linkAction: { id: 'mail.link.action', defaultMessage: 'Sign in to Admit' },
  linkIgnore: {
    id: 'mail.link.ignore',
    defaultMessage:
      'The link works once, for 15 minutes. If you did not ask for it, ignore this email: nobody can sign in without opening it.',
  },

  inviteSubject: {
    id: 'mail.invite.subject',
    defaultMessage: '{inviter} invited you to {organization} on Admit',
  },
  inviteIntro: {
    id: 'mail.invite.intro',
    defaultMessage:
      '{inviter} invited you to join {organization} on Admit as {role, select, admin {an admin} staff {door staff} other {a member}}.',
  },
  inviteHow: {
    id: 'mail.invite.how',
    defaultMessage: 'Sign in or create an account with this email address, then accept the invitation.',
  },
  inviteAction: { id: 'mail.invite.action', defaultMessage: 'See the invitation' },
  inviteIgnore: {
    id: 'mail.invite.ignore',
    defaultMessage:
      'The invitation expires on {expiresAt, date, long} at {expiresAt, time, short} UTC. If you do not know {organization}, ignore this email.',
  },

  smsCode: {
    id: 'sms.code',
    defaultMessage: '{code} is your Admit sign-in code. It expires in 5 minutes.',
  },
} satisfies Record<string, MessageDescriptor>;
