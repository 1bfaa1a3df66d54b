import { useAccount } from './account-context';

/** Which profile a section acts on; in Form B, that it acts on the whole account and why. */
export function ScopeNote() {
  const { form, profile } = useAccount();
  if (form === 'B') {
    return (
      <p class="scope-note">
        Applies to: <strong>Whole account</strong> (this API form has no profile selection).
      </p>
    );
  }
  return (
    <p class="scope-note">
      Applies to profile: <strong>{profile}</strong> (change it with Profile above).
    </p>
  );
}
