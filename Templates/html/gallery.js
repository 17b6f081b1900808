// Vitrine gallery: an image that fails to load gives way to the striped placeholder behind it.
document.addEventListener("error", (event) => {
  const image = event.target;
  if (image instanceof HTMLImageElement) {
    image.classList.add("broken");
    image.parentElement?.classList.add("placeholder");
  }
}, true);
