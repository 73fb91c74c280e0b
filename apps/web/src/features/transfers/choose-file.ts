/**
 * The browser's file picker for one file, opened from a menu item ("Upload new version") rather
 * than from the upload dialog's own input: an input made for the one pick, removed once it is
 * answered.
 */
export function chooseFile(onChosen: (file: File) => void): void {
  const input = document.createElement('input');
  input.type = 'file';
  input.hidden = true;
  input.setAttribute('aria-hidden', 'true');
  const done = () => input.remove();
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    done();
    if (file) onChosen(file);
  });
  input.addEventListener('cancel', done);
  document.body.append(input);
  input.click();
}
