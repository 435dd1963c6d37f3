// run-controls.js: pause, play and step, and the numbers of the last
// "stats" event (ticks/s, ms/tick, entities, scene time).

import { post } from './api.js';
import { put } from './keyed.js';

export class RunControls {
  constructor({ pause, play, step, steps, numbers, message }) {
    this.buttons = { pause, play, step };
    this.numbers = numbers;
    this.message = message;
    pause.addEventListener('click', () => this.send('api/pause'));
    play.addEventListener('click', () => this.send('api/play'));
    step.addEventListener('click', () => this.send(`api/step?n=${Math.max(1, Number(steps.value) || 1)}`));
    this.paused = false;
  }

  async send(path) {
    try {
      this.show(await post(path));
      this.message.textContent = '';
    } catch (err) {
      this.message.textContent = err.message;
    }
  }

  /** Show a run state ({paused}) or a stats event. */
  show(s) {
    this.paused = s.paused;
    this.buttons.pause.disabled = s.paused;
    this.buttons.play.disabled = !s.paused;
    document.body.classList.toggle('paused', s.paused);
  }

  stats(s) {
    this.show(s);
    const parts = [
      ['ticks/s', Math.round(s.ticksPerSecond).toLocaleString('en')],
      ['ms/tick p50', s.msPerTick.p50.toFixed(3)],
      ['p99', s.msPerTick.p99.toFixed(3)],
      ['entities', s.entities.toLocaleString('en')],
      ['tick', s.ticks.toLocaleString('en')],
      ['time', `${s.time.toFixed(1)} s`],
    ];
    // The numbers change four times a second: their text is replaced in
    // place, the elements made once.
    if (this.numbers.children.length !== parts.length) {
      this.numbers.replaceChildren(...parts.map(([k]) => {
        const d = document.createElement('span');
        d.className = 'num';
        d.dataset.key = k;
        d.append(document.createElement('b'), ` ${k}`);
        return d;
      }));
    }
    parts.forEach(([, v], i) => put(this.numbers.children[i].firstChild, 'textContent', v));
  }
}
