import { describe, expect, it } from 'vitest';
import { deviceOf } from './device-name';

describe('deviceOf', () => {
  it('names Chrome on Linux, also headless', () => {
    expect(
      deviceOf('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36'),
    ).toEqual({ browser: 'Chrome', os: 'Linux' });
  });

  it('names Safari on iOS and Edge on Windows rather than the browsers they mention', () => {
    expect(
      deviceOf(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      ),
    ).toEqual({ browser: 'Safari', os: 'iOS' });
    expect(
      deviceOf(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      ),
    ).toEqual({ browser: 'Edge', os: 'Windows' });
  });

  it('names Firefox on Android and gives up on an API client', () => {
    expect(deviceOf('Mozilla/5.0 (Android 14; Mobile; rv:131.0) Gecko/131.0 Firefox/131.0')).toEqual({
      browser: 'Firefox',
      os: 'Android',
    });
    expect(deviceOf('curl/8.5.0')).toBeNull();
    expect(deviceOf(null)).toBeNull();
  });
});
