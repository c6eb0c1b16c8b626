import { Alert, Button, Stack } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';

type Detector = { detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]> };

/**
 * The browser's BarcodeDetector where it has one, else the `barcode-detector` ponyfill (ZXing in
 * WebAssembly, served by this app: nothing is fetched from elsewhere).
 */
async function qrDetector(): Promise<Detector> {
  const native = (globalThis as { BarcodeDetector?: new (options: { formats: string[] }) => Detector }).BarcodeDetector;
  if (native) return new native({ formats: ['qr_code'] });
  const [{ BarcodeDetector, prepareZXingModule }, { default: wasmUrl }] = await Promise.all([
    import('barcode-detector/ponyfill'),
    import('zxing-wasm/reader/zxing_reader.wasm?url'),
  ]);
  prepareZXingModule({
    overrides: { locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path) },
  });
  return new BarcodeDetector({ formats: ['qr_code'] });
}

/** The camera, looking for QR codes; each new code found is handed to `onCode` (the same code once every 3 s). */
export function CameraScanner({ onCode, onClose }: { onCode: (code: string) => void; onClose: () => void }) {
  const intl = useIntl();
  const video = useRef<HTMLVideoElement>(null);
  const [failed, setFailed] = useState(false);
  // The latest handler, without restarting the camera each time the page re-renders.
  const handler = useRef(onCode);
  useEffect(() => {
    handler.current = onCode;
  }, [onCode]);

  useEffect(() => {
    let stream: MediaStream | undefined;
    let stopped = false;
    const lastSeen = new Map<string, number>();
    (async () => {
      try {
        const detector = await qrDetector();
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' } });
        if (stopped || !video.current) return;
        video.current.srcObject = stream;
        await video.current.play();
        const look = async () => {
          if (stopped || !video.current) return;
          const found = await detector.detect(video.current).catch(() => []);
          for (const { rawValue } of found) {
            if (Date.now() - (lastSeen.get(rawValue) ?? 0) > 3000) handler.current(rawValue);
            lastSeen.set(rawValue, Date.now());
          }
          setTimeout(() => void look(), 120);
        };
        void look();
      } catch {
        setFailed(true);
      }
    })();
    return () => {
      stopped = true;
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, []);

  return (
    <Stack gap="xs">
      {failed ? (
        <Alert color="orange" role="alert">
          <FormattedMessage
            id="scanner.camera.failed"
            defaultMessage="The camera could not be opened. Allow it for this site, or type or scan codes into the field."
          />
        </Alert>
      ) : (
        <video
          ref={video}
          muted
          playsInline
          aria-label={intl.formatMessage({ id: 'scanner.camera.view', defaultMessage: 'Camera view for scanning QR codes' })}
          style={{ width: '100%', maxHeight: 360, borderRadius: 8, background: '#000', objectFit: 'cover' }}
        />
      )}
      <Button variant="default" onClick={onClose}>
        <FormattedMessage id="scanner.camera.close" defaultMessage="Close camera" />
      </Button>
    </Stack>
  );
}
