import { UploadRefusal, type Picture } from '@admit/shared/files';
import { Alert, Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import '@mantine/dropzone/styles.css';
import { useEffect, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { untyped } from './messages';
import { ResponsivePicture } from './picture';

const refusals = untyped(
  defineMessages({
    'too-large': { id: 'upload.refused.tooLarge', defaultMessage: 'The image is larger than {maxMb, number} MB.' },
    'not-an-image': { id: 'upload.refused.notImage', defaultMessage: 'This file is not an image.' },
    'unsupported-type': { id: 'upload.refused.type', defaultMessage: 'Use a JPEG, PNG, WebP or AVIF image.' },
    'too-many-pixels': { id: 'upload.refused.pixels', defaultMessage: 'The image has too many pixels. Use a smaller one.' },
    damaged: { id: 'upload.refused.damaged', defaultMessage: 'The image is damaged or incomplete.' },
    failed: { id: 'upload.refused.failed', defaultMessage: 'The upload did not work. Check the connection and try again.' },
  }),
);

const accepted = ['image/jpeg', 'image/png', 'image/webp', 'image/avif'];
const maxBytes = 10 * 1024 * 1024;

/** Sends the file to the picture's route (`PUT`), with its focal point; the refusal's reason, or null. */
async function send(endpoint: string, upload: File, focus: { x: number; y: number }): Promise<UploadRefusal | 'failed' | null> {
  const response = await fetch(`${endpoint}?focalX=${focus.x.toFixed(3)}&focalY=${focus.y.toFixed(3)}`, {
    method: 'PUT',
    body: upload,
    credentials: 'same-origin',
    headers: { 'content-type': upload.type || 'application/octet-stream' },
  }).catch(() => null);
  if (response?.ok) return null;
  const body = (await response?.json().catch(() => null)) as { error?: { details?: { reason?: string } } } | null;
  const reason = UploadRefusal.safeParse(body?.error?.details?.reason);
  return reason.success ? reason.data : 'failed';
}

/**
 * Choosing a picture: dropped or picked, previewed before it is sent, with its focal point set by a
 * click (or the arrow keys) on the preview and shown in the wide and square crops it is used in.
 * `current` is the stored picture; it can be removed. The server checks the file again and has the
 * last word.
 */
export function PictureUpload({
  endpoint,
  current,
  label,
  crops,
}: {
  endpoint: string;
  current: Picture | null;
  label: string;
  /** The crops the picture is shown in, previewed side by side. */
  crops: ('wide' | 'square')[];
}) {
  const intl = useIntl();
  const [chosen, setChosen] = useState<{ file: File; url: string; width: number; height: number } | null>(null);
  const [focus, setFocus] = useState({ x: 0.5, y: 0.5 });
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<keyof typeof refusals | null>(null);
  useEffect(
    () => () => {
      if (chosen) URL.revokeObjectURL(chosen.url);
    },
    [chosen],
  );

  const choose = (upload: File) => {
    setRefusal(null);
    if (upload.size > maxBytes) return setRefusal('too-large');
    const url = URL.createObjectURL(upload);
    const image = new Image();
    image.onload = () => {
      setChosen({ file: upload, url, width: image.naturalWidth, height: image.naturalHeight });
      setFocus({ x: 0.5, y: 0.5 });
    };
    image.onerror = () => {
      URL.revokeObjectURL(url);
      setRefusal('not-an-image');
    };
    image.src = url;
  };
  const upload = async () => {
    if (!chosen) return;
    setBusy(true);
    const refused = await send(endpoint, chosen.file, focus);
    setBusy(false);
    if (refused) return setRefusal(refused);
    setChosen(null);
  };
  const remove = async () => {
    setBusy(true);
    const response = await fetch(endpoint, { method: 'DELETE', credentials: 'same-origin' }).catch(() => null);
    setBusy(false);
    if (!response?.ok) setRefusal('failed');
  };
  const pointAt = (event: MouseEvent<HTMLButtonElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    setFocus({
      x: Math.min(1, Math.max(0, (event.clientX - box.left) / box.width)),
      y: Math.min(1, Math.max(0, (event.clientY - box.top) / box.height)),
    });
  };
  const nudge = (event: KeyboardEvent<HTMLButtonElement>) => {
    const step = { ArrowLeft: [-0.05, 0], ArrowRight: [0.05, 0], ArrowUp: [0, -0.05], ArrowDown: [0, 0.05] }[event.key];
    if (!step) return;
    event.preventDefault();
    setFocus((before) => ({
      x: Math.min(1, Math.max(0, before.x + step[0]!)),
      y: Math.min(1, Math.max(0, before.y + step[1]!)),
    }));
  };
  const preview: Picture | null = chosen
    ? {
        width: chosen.width,
        height: chosen.height,
        focalX: focus.x,
        focalY: focus.y,
        variants: [{ url: chosen.url, width: chosen.width, height: chosen.height, format: 'jpeg' }],
      }
    : current;

  return (
    <Stack gap="sm">
      {chosen ? (
        <>
          <Text size="sm">
            <FormattedMessage
              id="upload.focus.hint"
              defaultMessage="Click the picture where its subject is (or use the arrow keys): the crops below keep that point in view."
            />
          </Text>
          <button
            type="button"
            onClick={pointAt}
            onKeyDown={nudge}
            aria-label={intl.formatMessage(
              {
                id: 'upload.focus.label',
                defaultMessage: 'Focal point at {x, number, percent} from the left, {y, number, percent} from the top',
              },
              { x: focus.x, y: focus.y },
            )}
            style={{ position: 'relative', padding: 0, border: 0, cursor: 'crosshair', maxWidth: 480, background: 'none' }}
          >
            <img src={chosen.url} alt="" style={{ display: 'block', width: '100%', height: 'auto' }} />
            <span
              aria-hidden
              style={{
                position: 'absolute',
                left: `${focus.x * 100}%`,
                top: `${focus.y * 100}%`,
                width: 22,
                height: 22,
                marginLeft: -11,
                marginTop: -11,
                borderRadius: '50%',
                border: '3px solid white',
                boxShadow: '0 0 0 2px var(--mantine-color-indigo-7)',
              }}
            />
          </button>
        </>
      ) : (
        <Dropzone
          onDrop={(files) => files[0] && choose(files[0])}
          onReject={(rejections) =>
            rejections[0] && setRefusal(rejections[0].file.size > maxBytes ? 'too-large' : 'unsupported-type')
          }
          accept={accepted}
          maxSize={maxBytes}
          multiple={false}
          activateOnClick
          aria-label={label}
          inputProps={{ 'aria-label': label }}
        >
          <Stack align="center" gap={4} py="md" style={{ pointerEvents: 'none' }}>
            <Text fw={500} ta="center">
              <FormattedMessage id="upload.drop.title" defaultMessage="Drop an image here, or click to choose one" />
            </Text>
            <Text size="sm" c="dimmed" ta="center">
              <FormattedMessage id="upload.drop.hint" defaultMessage="JPEG, PNG, WebP or AVIF, up to 10 MB." />
            </Text>
          </Stack>
        </Dropzone>
      )}
      {preview && (
        <SimpleGrid cols={crops.length} spacing="sm" maw={crops.length * 240}>
          {crops.map((crop) => (
            <Stack key={crop} gap={2}>
              <ResponsivePicture picture={preview} alt="" sizes="240px" crop={crop} style={{ borderRadius: 8 }} />
              <Text size="xs" c="dimmed">
                {crop === 'wide' ? (
                  <FormattedMessage id="upload.crop.wide" defaultMessage="Wide (pages and lists)" />
                ) : (
                  <FormattedMessage id="upload.crop.square" defaultMessage="Square (orders and logos)" />
                )}
              </Text>
            </Stack>
          ))}
        </SimpleGrid>
      )}
      {refusal && (
        <Alert color="red" role="alert">
          {intl.formatMessage(refusals[refusal], { maxMb: maxBytes / 1_048_576 })}
        </Alert>
      )}
      <Group gap="xs">
        {chosen && (
          <>
            <Button onClick={() => void upload()} loading={busy}>
              <FormattedMessage id="upload.save" defaultMessage="Save picture" />
            </Button>
            <Button variant="default" onClick={() => setChosen(null)} disabled={busy}>
              <FormattedMessage id="editEvent.cancel" defaultMessage="Discard" />
            </Button>
          </>
        )}
        {!chosen && current && (
          <Button variant="subtle" color="red" onClick={() => void remove()} loading={busy}>
            <FormattedMessage id="upload.remove" defaultMessage="Remove picture" />
          </Button>
        )}
      </Group>
    </Stack>
  );
}
