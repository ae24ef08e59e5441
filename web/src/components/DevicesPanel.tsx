import type { DevicesResponse } from '@webbridge/client-sdk';
import { useCallback, useState } from 'preact/hooks';
import { useI18n } from '../i18n/I18nContext';
import { useDevices } from '../state/DevicesContext';
import { useWatching } from '../state/WatchingContext';

/**
 * The paired devices, read when the panel is opened: this one first, the others with when
 * they were last seen. A controlling page can forget any other device (its streams end, it
 * must pair again); a watching page only lists them.
 */
export function DevicesPanel() {
  const devices = useDevices();
  const watching = useWatching();
  const { t, format } = useI18n();
  const [listed, setListed] = useState<DevicesResponse | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(async () => {
    if (!devices) return;
    try {
      setListed(await devices.list());
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, [devices]);

  if (!devices) return null;
  const own = listed?.devices.find((device) => device.id === listed.current);
  const others = listed?.devices.filter((device) => device.id !== listed.current) ?? [];

  return (
    <details
      class="panel devices"
      onToggle={(event) => {
        if (event.currentTarget.open) void load();
      }}
    >
      <summary>
        <h2>{t('devices')}</h2>
      </summary>
      {failed && <p class="devices-note">{t('devicesFailed')}</p>}
      {listed && (
        <>
          <p class="devices-note">{own ? t('thisDevice', { name: own.name }) : t('notPaired')}</p>
          {others.length === 0 ? (
            <p class="devices-note">{t('noOtherDevices')}</p>
          ) : (
            <ul class="device-list">
              {others.map((device) => (
                <li key={device.id} class="device">
                  <span class="device-name" dir="auto">
                    {device.name}
                    {device.role === 'view' && <span class="device-role"> · {t('deviceWatching')}</span>}
                  </span>
                  {/* A watching device is not told when the others were last seen. */}
                  {device.lastSeen !== undefined && (
                    <span class="device-seen">
                      {t('lastSeen', { date: format.dateTime(device.lastSeen) })}
                    </span>
                  )}
                  {!watching && (
                    <button
                      type="button"
                      class="small"
                      aria-label={t('forgetDeviceLabel', { name: device.name })}
                      onClick={async () => {
                        try {
                          await devices.forget(device.id);
                        } finally {
                          await load();
                        }
                      }}
                    >
                      {t('forgetDevice')}
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </details>
  );
}
