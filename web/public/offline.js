// The offline page's retry: asks the host for the page every few seconds (longer each time, at
// most 30 s, at once when the network comes back or on the button) and reloads when it answers.
(() => {
  const status = document.getElementById('offline-status');
  const button = document.getElementById('offline-retry');
  let delay = 2;
  let timer = 0;
  let countdown = 0;

  const schedule = () => {
    let left = delay;
    status.textContent = `Trying again in ${left} s…`;
    clearInterval(countdown);
    countdown = setInterval(() => {
      left -= 1;
      if (left > 0) status.textContent = `Trying again in ${left} s…`;
    }, 1000);
    timer = setTimeout(attempt, delay * 1000);
    delay = Math.min(delay * 2, 30);
  };

  async function attempt() {
    clearTimeout(timer);
    clearInterval(countdown);
    status.textContent = 'Trying again…';
    try {
      // Not a navigation, so the service worker passes it to the network as it is.
      const response = await fetch('/', { cache: 'no-store' });
      if (response.ok) {
        status.textContent = 'The host answers again. Loading…';
        location.reload();
        return;
      }
    } catch {
      // Still unreachable.
    }
    schedule();
  }

  button.addEventListener('click', () => {
    delay = 2;
    void attempt();
  });
  addEventListener('online', () => void attempt());
  schedule();
})();
