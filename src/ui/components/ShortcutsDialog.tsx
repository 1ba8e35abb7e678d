import { ui, useApp } from '../store';
import { useModal } from './useModal';

const KEYS: [string, string][] = [
  ['→', 'Step forward'],
  ['←', 'Step back'],
  ['Space', 'Play / Pause'],
  ['Home', 'Go to the first step'],
  ['End', 'Go to the last step computed'],
  ['1 – 4', 'Detail: cluster, runtime, CNI, kernel'],
  ['P', 'Presenter mode: large type, narration'],
  ['?', 'These shortcuts'],
  ['Esc', 'Close this dialog'],
];

/** The keyboard shortcuts ("?"), in a modal dialog. */
export function ShortcutsDialog() {
  const open = useApp((s) => s.shortcutsOpen);
  const ref = useModal(open);
  return (
    <dialog
      ref={ref}
      aria-labelledby="shortcuts-title"
      onClose={() => ui.shortcuts(false)}
      className="shortcuts"
    >
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      <table>
        <tbody>
          {KEYS.map(([k, what]) => (
            <tr key={k}>
              <th scope="row">
                <kbd>{k}</kbd>
              </th>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <form method="dialog">
        <button type="submit">Close</button>
      </form>
    </dialog>
  );
}
