import { Skeleton } from '@mantine/core';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';

/** A ticket's code as a QR image (an SVG made on the device, so it works offline). */
export function TicketQr({ code, label, size = 180 }: { code: string; label: string; size?: number }) {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void QRCode.toString(code, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }).then((markup) => {
      if (current) setSvg(markup);
    });
    return () => {
      current = false;
    };
  }, [code]);
  if (!svg) return <Skeleton w={size} h={size} />;
  return <img src={`data:image/svg+xml;utf8,${encodeURIComponent(svg)}`} width={size} height={size} alt={label} />;
}
