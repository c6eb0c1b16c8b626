import { writeFileSync } from 'node:fs';
import QRCode from 'qrcode';

const width = 640;
const height = 480;

/**
 * A video for Chromium's fake camera (`--use-file-for-fake-video-capture`): one frame, in Y4M
 * (YUV 4:2:0), of a QR code carrying `text`, black on white in the middle, as a phone held over a
 * ticket would see it. Chromium plays it in a loop.
 */
export function writeQrVideo(file: string, text: string) {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const moduleSize = 8;
  const side = (modules.size + 8) * moduleSize; // with a quiet zone of 4 modules each side
  const left = Math.floor((width - side) / 2);
  const top = Math.floor((height - side) / 2);
  const luma = Buffer.alloc(width * height, 235);
  for (let y = 0; y < modules.size; y++) {
    for (let x = 0; x < modules.size; x++) {
      if (!modules.get(y, x)) continue;
      for (let dy = 0; dy < moduleSize; dy++) {
        const row = top + (y + 4) * moduleSize + dy;
        luma.fill(16, row * width + left + (x + 4) * moduleSize, row * width + left + (x + 5) * moduleSize);
      }
    }
  }
  const chroma = Buffer.alloc((width / 2) * (height / 2), 128);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F30:1 Ip A1:1 C420jpeg\n`);
  writeFileSync(file, Buffer.concat([header, Buffer.from('FRAME\n'), luma, chroma, chroma]));
}

/** Chromium's flags for a fake camera that shows `videoFile`, with the permission prompt answered yes. */
export const fakeCameraArgs = (videoFile: string) => [
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  `--use-file-for-fake-video-capture=${videoFile}`,
];
